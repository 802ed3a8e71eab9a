/**
 * Which pending task runs on which executor slot: FIFO across stages, delay scheduling for
 * locality, retries. Pure, so the AM's driver and the simulator schedule tasks with the same code.
 */
package org.elasticam.engine.scheduling;
