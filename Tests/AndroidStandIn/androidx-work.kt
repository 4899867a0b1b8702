// A stand-in of the androidx.work classes the generated Kotlin uses, from their documented
// signatures. Unique work is persisted to files under the directory named by the system
// property `actionable.work.dir`, so a test can end the process after a tap and run the work in
// another one, as WorkManager runs persisted work after process death.
@file:Suppress("unused", "UNUSED_PARAMETER")

package androidx.work

import android.content.Context
import java.io.File
import java.util.concurrent.TimeUnit

class Data private constructor(private val values: Map<String, String?>) {
    fun getString(key: String): String? = values[key]
    fun keyValueMap(): Map<String, Any?> = values

    class Builder {
        private val values = LinkedHashMap<String, String?>()
        fun putString(key: String, value: String?): Builder { values[key] = value; return this }

        /** Serialized as WorkManager does (an ObjectOutputStream of the map), and refused past MAX_DATA_BYTES, as WorkManager does. */
        fun build(): Data {
            val bytes = java.io.ByteArrayOutputStream()
            java.io.ObjectOutputStream(bytes).use { stream ->
                stream.writeInt(values.size)
                for ((key, value) in values) {
                    stream.writeUTF(key)
                    stream.writeObject(value)
                }
            }
            if (bytes.size() > MAX_DATA_BYTES) {
                throw IllegalStateException("Data cannot occupy more than " + MAX_DATA_BYTES + " bytes when serialized")
            }
            return Data(LinkedHashMap(values))
        }
    }

    companion object {
        const val MAX_DATA_BYTES: Int = 10 * 1024
    }
}

class WorkerParameters(val inputData: Data, val runAttemptCount: Int)

abstract class ListenableWorker(private val appContext: Context, private val parameters: WorkerParameters) {
    fun getApplicationContext(): Context = appContext
    fun getInputData(): Data = parameters.inputData
    fun getRunAttemptCount(): Int = parameters.runAttemptCount

    /** As WorkManager's: results of one kind are equal (Result.retry() == Result.retry()). */
    abstract class Result {
        override fun equals(other: Any?): Boolean = other != null && other.javaClass == javaClass
        override fun hashCode(): Int = javaClass.name.hashCode()

        class Success : Result()
        class Retry : Result()
        class Failure : Result()

        companion object {
            @JvmStatic fun success(): Result = Success()
            @JvmStatic fun retry(): Result = Retry()
            @JvmStatic fun failure(): Result = Failure()
        }
    }
}

abstract class Worker(context: Context, workerParams: WorkerParameters) : ListenableWorker(context, workerParams) {
    abstract fun doWork(): Result
}

enum class NetworkType { NOT_REQUIRED, CONNECTED, UNMETERED, NOT_ROAMING, METERED }
enum class BackoffPolicy { EXPONENTIAL, LINEAR }
enum class ExistingWorkPolicy { REPLACE, KEEP, APPEND, APPEND_OR_REPLACE }

class Constraints private constructor(val requiredNetworkType: NetworkType) {
    class Builder {
        private var network = NetworkType.NOT_REQUIRED
        fun setRequiredNetworkType(networkType: NetworkType): Builder { network = networkType; return this }
        fun build(): Constraints = Constraints(network)
    }
}

abstract class WorkRequest

class OneTimeWorkRequest private constructor(val workerClass: Class<out ListenableWorker>, val inputData: Data) : WorkRequest() {
    class Builder(private val workerClass: Class<out ListenableWorker>) {
        private var input = Data.Builder().build()
        fun setInputData(inputData: Data): Builder { input = inputData; return this }
        fun setConstraints(constraints: Constraints): Builder = this
        fun setBackoffCriteria(backoffPolicy: BackoffPolicy, backoffDelay: Long, timeUnit: TimeUnit): Builder = this
        fun build(): OneTimeWorkRequest = OneTimeWorkRequest(workerClass, input)
    }
}

/** An enqueue, done in the background: `getResult()` completes once the work is stored. */
interface Operation {
    fun getResult(): com.google.common.util.concurrent.ListenableFuture<State.SUCCESS>

    abstract class State {
        class SUCCESS : State()
    }
}

abstract class WorkManager {
    abstract fun enqueueUniqueWork(uniqueWorkName: String, existingWorkPolicy: ExistingWorkPolicy, work: OneTimeWorkRequest): Operation

    companion object {
        @JvmStatic fun getInstance(context: Context): WorkManager = FileWorkManager
    }
}

/**
 * The stand-in's WorkManager: one file per unique work name (its worker class, then key=value lines). As WorkManager
 * does, an enqueue is stored in the background: the file is written when the Operation's result is waited for, or
 * when the process ends normally — a process killed between the enqueue and that (Runtime.halt) loses the work.
 */
object FileWorkManager : WorkManager() {
    private fun directory(): File = File(File(System.getProperty("actionable.work.dir") ?: "work"), "workmanager").also { it.mkdirs() }
    private fun file(name: String) = File(directory(), name.replace(Regex("[^A-Za-z0-9._-]"), "_"))
    private val pending = LinkedHashMap<String, () -> Unit>()

    init {
        Runtime.getRuntime().addShutdownHook(Thread { flush() })
    }

    @Synchronized private fun flush() {
        for (write in pending.values) write()
        pending.clear()
    }

    @Synchronized override fun enqueueUniqueWork(uniqueWorkName: String, existingWorkPolicy: ExistingWorkPolicy, work: OneTimeWorkRequest): Operation {
        val target = file(uniqueWorkName)
        if (!((target.exists() || pending.containsKey(uniqueWorkName)) && existingWorkPolicy == ExistingWorkPolicy.KEEP)) {
            val lines = listOf(work.workerClass.name) + work.inputData.keyValueMap().map { (key, value) ->
                key + "=" + java.util.Base64.getEncoder().encodeToString((value as String? ?: "").toByteArray())
            }
            pending[uniqueWorkName] = { target.writeText(lines.joinToString("\n")) }
        }
        return object : Operation {
            override fun getResult(): com.google.common.util.concurrent.ListenableFuture<Operation.State.SUCCESS> = StoredFuture { flush() }
        }
    }

    /** Runs every persisted work once (a test's stand-in for WorkManager's scheduler): what succeeds or fails for good is removed, what asks to retry stays. */
    fun runPending(context: Context): Map<String, String> {
        val outcomes = LinkedHashMap<String, String>()
        for (entry in directory().listFiles()?.sortedBy { it.name } ?: emptyList()) {
            val lines = entry.readLines()
            val builder = Data.Builder()
            for (line in lines.drop(1)) {
                val key = line.substringBefore("=")
                builder.putString(key, String(java.util.Base64.getDecoder().decode(line.substringAfter("="))))
            }
            val worker = Class.forName(lines[0]).getConstructor(Context::class.java, WorkerParameters::class.java)
                .newInstance(context, WorkerParameters(builder.build(), 0)) as Worker
            val result = worker.doWork()
            outcomes[entry.name] = result.javaClass.simpleName
            if (result !is ListenableWorker.Result.Retry) entry.delete()
        }
        return outcomes
    }
}

/** A future that stores the work when waited for. */
private class StoredFuture(private val store: () -> Unit) : com.google.common.util.concurrent.ListenableFuture<Operation.State.SUCCESS> {
    override fun addListener(listener: Runnable, executor: java.util.concurrent.Executor) { executor.execute { get(); listener.run() } }
    override fun cancel(mayInterruptIfRunning: Boolean): Boolean = false
    override fun isCancelled(): Boolean = false
    override fun isDone(): Boolean = false
    override fun get(): Operation.State.SUCCESS { store(); return Operation.State.SUCCESS() }
    override fun get(timeout: Long, unit: TimeUnit): Operation.State.SUCCESS = get()
}
