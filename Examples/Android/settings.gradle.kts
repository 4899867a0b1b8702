// An app with the generated module beside it: `actionable generate kotlin --package com.example.app.actionable
// --output actionable/src/main` writes the module's sources; this file and the two build files are the app's.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositories {
        google()
        mavenCentral()
    }
}

include(":app", ":actionable")
