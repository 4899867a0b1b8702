@file:Suppress("unused")

package com.google.common.util.concurrent

/** Guava's future with listeners (WorkManager's Operation.getResult() returns one); the stand-in needs only Future's get. */
interface ListenableFuture<V> : java.util.concurrent.Future<V> {
    fun addListener(listener: Runnable, executor: java.util.concurrent.Executor)
}
