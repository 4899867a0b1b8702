@file:Suppress("unused", "UNUSED_PARAMETER")

package android.util

object Log {
    @JvmStatic fun e(tag: String?, msg: String, tr: Throwable?): Int { System.err.println("E/" + tag + ": " + msg + " " + (tr ?: "")); return 0 }
    @JvmStatic fun w(tag: String?, msg: String): Int { System.err.println("W/" + tag + ": " + msg); return 0 }
}
