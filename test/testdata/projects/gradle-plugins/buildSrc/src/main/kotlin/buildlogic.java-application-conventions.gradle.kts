plugins {
    id("buildlogic.java-common-conventions")
    application
}
