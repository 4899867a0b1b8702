// The app's own module: what it needs for the generated one.
plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
    // Reads app/google-services.json (from the Firebase console): the FCM project the server sends through.
    id("com.google.gms.google-services")
}

android {
    namespace = "com.example.app"
    compileSdk = 34

    defaultConfig {
        applicationId = "com.example.app"
        minSdk = 21
        targetSdk = 34
    }
}

dependencies {
    implementation(project(":actionable"))
}
