plugins {
    id("buildlogic.java-application-conventions")
    alias(libs.plugins.spring.boot)
}

dependencies {
    implementation(project(":utilities"))
}

tasks.register<Copy>("copyAssets") {
    description = "Copy the web assets"
    from("web")
    into(layout.buildDirectory.dir("assets"))
}
