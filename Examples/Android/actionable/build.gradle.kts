// The generated module: a library the app depends on. Its sources, strings and manifest are what
// `actionable generate kotlin --package com.example.app.actionable --output actionable/src/main` writes.
plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
}

android {
    // The --package given to generate kotlin: the module's R (its strings) is com.example.app.actionable.R,
    // which the generated code uses by default.
    namespace = "com.example.app.actionable"
    // 33 or later: the manifest asks for POST_NOTIFICATIONS (Android 13).
    compileSdk = 34

    defaultConfig {
        minSdk = 21
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_1_8
        targetCompatibility = JavaVersion.VERSION_1_8
    }

    kotlinOptions {
        jvmTarget = "1.8"
    }
}

dependencies {
    // `api`: the app sees these types through the module (ActionableMessagingService is a
    // FirebaseMessagingService; the actions are NotificationCompat.Actions; the workers are Workers).
    api("androidx.core:core:1.13.1")
    api("androidx.work:work-runtime:2.9.1")
    api("com.google.firebase:firebase-messaging:24.0.0")
}
