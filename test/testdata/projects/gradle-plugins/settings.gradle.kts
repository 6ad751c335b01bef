// Shaped like `gradle init --split-project`: convention plugins in
// buildSrc, a version catalog, and a Groovy project beside them.
plugins {
    id("org.gradle.toolchains.foojay-resolver-convention") version "0.8.0"
}

rootProject.name = "demo"
include(
    "app",
    "list",
    "utilities",
)
include("tools:gen")
