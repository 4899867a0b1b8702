// A stand-in of the Android framework classes the generated Kotlin uses, written from Android's
// documented signatures (developer.android.com/reference), so that it compiles and runs on a
// plain JVM with kotlinc. Behaviour is the least the tests need; signatures are never simplified.
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
        const val S: Int = 31
    }
}

open class Bundle {
    private val values = LinkedHashMap<String, Any?>()
    open fun getCharSequence(key: String?): CharSequence? = values[key] as? CharSequence
    open fun putCharSequence(key: String?, value: CharSequence?) { values[key ?: ""] = value }
    open fun getString(key: String?): String? = values[key] as? String
    open fun putString(key: String?, value: String?) { values[key ?: ""] = value }
    open fun keySet(): Set<String> = values.keys
}
