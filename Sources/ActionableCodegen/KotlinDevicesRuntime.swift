extension KotlinRuntime {
    /// `ActionableDevices` and its worker (the device's token registered through WorkManager, at
    /// `onNewToken` and at sign-in), the messaging service and `ActionableNotifications` (the
    /// notification a data message becomes, and the `POST_NOTIFICATIONS` helper); placed in the
    /// runtime's text before `ActionableCatalog`. Kotlin 1.3, as the rest.
    static let devicesText = #"""
        /**
         * The device's FCM registration token, registered for the signed-in user with POST /v1/devices (platform android)
         * through WorkManager: kept until the server has it. The messaging service calls it from onNewToken; when a user
         * signs in, call registerCurrentToken after ActionableReports.configure with their JWT.
         */
        public object ActionableDevices {
            public const val TOKEN: String = "actionable.deviceToken"

            /**
             * Registers FirebaseMessaging's current token for the user signed in now (call it after
             * ActionableReports.configure with their JWT, at each sign-in): FCM calls onNewToken only when the token
             * changes, not when the user does. Returns at once; the token is stored for registration off the main thread.
             */
            public fun registerCurrentToken(context: Context) {
                val application = context.getApplicationContext()
                com.google.firebase.messaging.FirebaseMessaging.getInstance().getToken()
                    .addOnSuccessListener(object : com.google.android.gms.tasks.OnSuccessListener<String> {
                        override fun onSuccess(result: String) {
                            Thread { register(application, result) }.start()
                        }
                    })
            }

            public fun register(context: Context, token: String) {
                val request = androidx.work.OneTimeWorkRequest.Builder(ActionableDeviceWorker::class.java)
                    .setInputData(androidx.work.Data.Builder().putString(TOKEN, token).build())
                    .setConstraints(androidx.work.Constraints.Builder().setRequiredNetworkType(androidx.work.NetworkType.CONNECTED).build())
                    .setBackoffCriteria(androidx.work.BackoffPolicy.EXPONENTIAL, 10, java.util.concurrent.TimeUnit.SECONDS)
                    .build()
                // A newer token replaces one not registered yet. (onNewToken runs off the main thread.)
                try {
                    androidx.work.WorkManager.getInstance(context)
                        .enqueueUniqueWork("actionable.device", androidx.work.ExistingWorkPolicy.REPLACE, request)
                        .getResult().get(10, java.util.concurrent.TimeUnit.SECONDS)
                } catch (error: Exception) {
                    android.util.Log.e("Actionable", "the device's token could not be stored for registration", error)
                }
            }
        }

        /** Posts the device's token to POST /v1/devices: 200 and 201 end it; 401 (no JWT yet), 429, 5xx or no answer: retried. */
        public class ActionableDeviceWorker(context: Context, parameters: androidx.work.WorkerParameters) : androidx.work.Worker(context, parameters) {
            override fun doWork(): androidx.work.ListenableWorker.Result {
                val token = getInputData().getString(ActionableDevices.TOKEN) ?: return androidx.work.ListenableWorker.Result.failure()
                val body = "{\"token\":" + ActionableJson.string(token) + ",\"platform\":\"android\"}"
                return ActionableHTTP.post(getApplicationContext(), "/v1/devices", body, emptySet())
            }
        }

        /**
         * Turns the server's FCM data messages into notifications with their actions, and registers the device's token.
         * Declared in the generated AndroidManifest.xml; an app with a messaging service of its own extends this one
         * (and calls super) instead.
         */
        public open class ActionableMessagingService : com.google.firebase.messaging.FirebaseMessagingService() {
            override fun onMessageReceived(message: com.google.firebase.messaging.RemoteMessage) {
                ActionableNotifications.show(this, message.getData())
            }

            override fun onNewToken(token: String) {
                ActionableDevices.register(this, token)
            }
        }

        /** The notification of a data message: its channel, icon, content and delete intents, and the category's actions. */
        public object ActionableNotifications {
            /** The id each notification is posted with; its tag is the notification's id. */
            public const val NOTIFICATION_TAG_ID: Int = 0x4163
            /** The channel the notifications go to, made on first use (Android 8 and later show it in the app's settings). */
            @Volatile public var channelId: String = "actionable"
            /** The channel's name as the user sees it. */
            @Volatile public var channelName: CharSequence = "Notifications"
            /** The small icon (a drawable of the app); 0 uses the app's own icon. */
            @Volatile public var smallIcon: Int = 0
            /** The activity opening the notification (and a foreground action) starts; null: the app's launcher activity. */
            @Volatile public var activity: Class<*>? = null

            /**
             * Posts the notification of the FCM data message `data` (category, notificationId, actionToken, title, body,
             * badge and the payload's keys) with its category's actions: the generated ones, or for a category this app
             * was not built with, the ones the server serves (ActionableCatalog; it may ask the server, so call it off the
             * main thread, as onMessageReceived is). A category neither knows is shown without buttons. False when the
             * message is not one of ours or notifications cannot be posted (POST_NOTIFICATIONS not granted, or turned off).
             */
            public fun show(context: Context, data: Map<String, String>): Boolean {
                val category = data["category"] ?: return false
                val notificationId = data["notificationId"] ?: return false
                val activity = activity ?: launcher(context) ?: return false
                val manager = NotificationManagerCompat.from(context)
                if (!manager.areNotificationsEnabled()) return false
                val compiled = ActionableCategories.actions(context, category, notificationId, data, activity)
                val served = if (compiled == null) ActionableCatalog.category(context, category) else null
                val actions = compiled ?: served?.let { ActionableCatalog.actions(context, it, notificationId, data, activity) } ?: emptyList()
                manager.createNotificationChannel(
                    NotificationChannelCompat.Builder(channelId, NotificationManagerCompat.IMPORTANCE_HIGH).setName(channelName).build())
                val payload = (if (compiled != null) ActionableCategories.payloadJson(category, data) else served?.let { ActionableCatalog.payloadJson(it, data) })
                    ?: "{}"
                val token = data["actionToken"]
                val open = ActionableIntents.tap(context, activity, category, ActionableIntents.DEFAULT_ACTION, notificationId, token, payload)
                val builder = NotificationCompat.Builder(context, channelId)
                    .setSmallIcon(if (smallIcon != 0) smallIcon else context.getApplicationInfo().icon)
                    .setContentTitle(data["title"])
                    .setContentText(data["body"])
                    .setPriority(NotificationCompat.PRIORITY_HIGH)
                    .setAutoCancel(true)
                    .setContentIntent(PendingIntent.getActivity(context, ActionableIntents.requestCode(notificationId, ActionableIntents.DEFAULT_ACTION), open,
                        PendingIntent.FLAG_UPDATE_CURRENT or ActionableIntents.immutableFlag()))
                if (if (compiled != null) ActionableCategories.reportsDismiss(category) else served?.reportsDismiss == true) {
                    val dismiss = ActionableIntents.tap(context, ActionableActionReceiver::class.java, category, ActionableIntents.DISMISS_ACTION, notificationId, token, payload)
                    builder.setDeleteIntent(PendingIntent.getBroadcast(context, ActionableIntents.requestCode(notificationId, ActionableIntents.DISMISS_ACTION), dismiss,
                        PendingIntent.FLAG_UPDATE_CURRENT or ActionableIntents.immutableFlag()))
                }
                data["badge"]?.toIntOrNull()?.let { builder.setNumber(it) }
                for (action in actions) builder.addAction(action)
                try {
                    manager.notify(notificationId, NOTIFICATION_TAG_ID, builder.build())
                } catch (refused: SecurityException) {
                    return false  // the permission was taken back meanwhile
                }
                return true
            }

            /** Whether notifications can be posted: POST_NOTIFICATIONS granted (Android 13 and later) and not turned off. */
            public fun canPost(context: Context): Boolean = NotificationManagerCompat.from(context).areNotificationsEnabled()

            /**
             * Asks for POST_NOTIFICATIONS (Android 13 and later) when it is not granted yet; the answer comes to the
             * activity's onRequestPermissionsResult with `requestCode`. Whether it asked.
             */
            public fun requestPermission(activity: android.app.Activity, requestCode: Int): Boolean {
                if (Build.VERSION.SDK_INT < Build.VERSION_CODES.TIRAMISU) return false
                val permission = "android.permission.POST_NOTIFICATIONS"
                if (androidx.core.content.ContextCompat.checkSelfPermission(activity, permission) == android.content.pm.PackageManager.PERMISSION_GRANTED) return false
                androidx.core.app.ActivityCompat.requestPermissions(activity, arrayOf(permission), requestCode)
                return true
            }

            private fun launcher(context: Context): Class<*>? {
                val name = context.getPackageManager().getLaunchIntentForPackage(context.getPackageName())?.getComponent()?.getClassName() ?: return null
                return try { Class.forName(name) } catch (missing: ClassNotFoundException) { null }
            }
        }


        """#
}
