// A stand-in of the Android framework classes the generated Kotlin uses, written from Android's
// documented signatures (developer.android.com/reference), so that it compiles and runs on a
// plain JVM with kotlinc. Signatures are never simplified, and where Android's documented
// behaviour decides whether the generated code works (RemoteInput results in ClipData, the
// PendingIntent mutability rules of API 31, WorkManager's 10 KB Data), the stand-in behaves so.
@file:Suppress("unused", "UNUSED_PARAMETER")

package android.os

object Build {
    object VERSION {
        /** The SDK version of the running system (settable here, for tests). */
        @JvmField var SDK_INT: Int = 34
    }

    object VERSION_CODES {
        const val M: Int = 23
        const val N: Int = 24
        const val O: Int = 26
        const val S: Int = 31
        const val TIRAMISU: Int = 33
    }
}

open class Bundle {
    private val values = LinkedHashMap<String, Any?>()
    open fun getCharSequence(key: String?): CharSequence? = values[key] as? CharSequence
    open fun putCharSequence(key: String?, value: CharSequence?) { values[key ?: ""] = value }
    open fun getString(key: String?): String? = values[key] as? String
    open fun putString(key: String?, value: String?) { values[key ?: ""] = value }
    open fun getInt(key: String?, defaultValue: Int): Int = values[key] as? Int ?: defaultValue
    open fun putInt(key: String?, value: Int) { values[key ?: ""] = value }
    open fun getBundle(key: String?): Bundle? = values[key] as? Bundle
    open fun putBundle(key: String?, value: Bundle?) { values[key ?: ""] = value }
    open fun putAll(bundle: Bundle) { for (key in bundle.keySet()) values[key] = bundle.get(key) }
    open fun get(key: String?): Any? = values[key]
    open fun containsKey(key: String?): Boolean = values.containsKey(key)
    open fun keySet(): Set<String> = values.keys
    open fun isEmpty(): Boolean = values.isEmpty()
}
