// A stand-in of Google Play services' Task (com.google.android.gms:play-services-tasks), from its documented
// declarations: what FirebaseMessaging.getToken() returns. A listener added to a task that has completed is
// called at once (the real one posts it to the main thread).
@file:Suppress("unused")

package com.google.android.gms.tasks

interface OnSuccessListener<TResult> {
    fun onSuccess(result: TResult)
}

interface OnFailureListener {
    fun onFailure(exception: Exception)
}

abstract class Task<TResult> {
    abstract fun isComplete(): Boolean
    abstract fun isSuccessful(): Boolean
    abstract fun getResult(): TResult?
    abstract fun getException(): Exception?
    abstract fun addOnSuccessListener(listener: OnSuccessListener<in TResult>): Task<TResult>
    abstract fun addOnFailureListener(listener: OnFailureListener): Task<TResult>
}

/** A task that has completed, with its result or its exception. */
class CompletedTask<TResult>(private val result: TResult?, private val exception: Exception?) : Task<TResult>() {
    override fun isComplete(): Boolean = true
    override fun isSuccessful(): Boolean = exception == null
    override fun getResult(): TResult? = result ?: throw IllegalStateException("the task failed", exception)
    override fun getException(): Exception? = exception
    override fun addOnSuccessListener(listener: OnSuccessListener<in TResult>): Task<TResult> {
        if (exception == null && result != null) listener.onSuccess(result)
        return this
    }
    override fun addOnFailureListener(listener: OnFailureListener): Task<TResult> {
        exception?.let { listener.onFailure(it) }
        return this
    }
}
