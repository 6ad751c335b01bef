plugins {
    application
}

// A side-effect trap: Gradle runs this script to list tasks; juju never does.
File(rootDir, "pwned-gradle").writeText("ran")
