/**
 * Streaming dynamic allocation: for micro-batch jobs, the executor count follows the ratio of a
 * batch's processing time to the batch interval instead of a task backlog. A policy is told when
 * executors come and go and how each batch went, and decides before each batch (and on the driver's
 * 100 ms tick) the executor target and which executors to stop giving tasks and remove. Pure:
 * every call carries the time; one thread.
 */
package org.elasticam.allocator.streaming;
