plugins {
    id("buildlogic.java-library-conventions")
    alias(libs.plugins.kotlin.jvm)
}
