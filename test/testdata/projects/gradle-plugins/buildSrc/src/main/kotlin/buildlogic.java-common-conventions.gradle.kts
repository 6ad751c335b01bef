plugins {
    java
}

tasks.register("printVersion") {
    description = "Print the project's version"
    doLast { println(project.version) }
}
