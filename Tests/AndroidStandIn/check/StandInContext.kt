// The app's context on the stand-in: its preferences and no-backup files live under the directory named by the
// system property `actionable.work.dir` (beside WorkManager's), so that a fresh process finds what an earlier one
// kept, as on a device.
package actionable.check

import android.content.Context
import android.content.Intent
import android.content.SharedPreferences
import android.content.pm.ApplicationInfo
import android.content.pm.PackageManager
import java.io.File
import java.util.Properties

class StandInContext : Context() {
    private val root = File(System.getProperty("actionable.work.dir") ?: "work")
    override fun getPackageName(): String = "com.example.app"
    override fun getString(resId: Int): String = "string#" + resId
    override fun getApplicationContext(): Context = this
    override fun getSharedPreferences(name: String, mode: Int): SharedPreferences = FilePreferences(File(root, "prefs/" + name + ".properties"))
    override fun getNoBackupFilesDir(): File = File(root, "no_backup").also { it.mkdirs() }
    override fun getPackageManager(): PackageManager = object : PackageManager() {
        override fun getLaunchIntentForPackage(packageName: String): Intent? =
            if (packageName == getPackageName()) Intent(this@StandInContext, MainActivity::class.java) else null
    }
    override fun getApplicationInfo(): ApplicationInfo = ApplicationInfo().also { it.icon = 0x7f010001 }
}

/** The app's launcher activity. */
class MainActivity : android.app.Activity()

/** SharedPreferences kept in a properties file: commit writes it before returning. */
class FilePreferences(private val file: File) : SharedPreferences {
    private fun load(): Properties = Properties().also { properties -> if (file.exists()) file.inputStream().use { properties.load(it) } }
    override fun getString(key: String, defValue: String?): String? = load().getProperty(key) ?: defValue
    override fun edit(): SharedPreferences.Editor = object : SharedPreferences.Editor {
        private val changes = LinkedHashMap<String, String?>()
        override fun putString(key: String, value: String?): SharedPreferences.Editor { changes[key] = value; return this }
        override fun remove(key: String): SharedPreferences.Editor { changes[key] = null; return this }
        override fun commit(): Boolean {
            val properties = load()
            for ((key, value) in changes) if (value == null) properties.remove(key) else properties.setProperty(key, value)
            file.parentFile.mkdirs()
            file.outputStream().use { properties.store(it, null) }
            return true
        }
        override fun apply() { commit() }
    }
}
