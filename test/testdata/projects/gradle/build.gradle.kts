plugins {
    application
}
