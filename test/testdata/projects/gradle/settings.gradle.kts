rootProject.name = "shop"
include(":app", ":lib")
