package org.elasticam.engine.job;

import org.elasticam.report.events.EventWriter;
import org.elasticam.time.Clock;
import org.elasticam.time.Scheduler;

/**
 * The world a job engine runs in: the thread its work is scheduled on and the time there, the
 * allocator it asks for executors, and where its events go. The AM's are its event loop, the
 * system clock, YarnAllocator and the event log; the simulator's and a test's run on simulated time.
 */
public record EnginePorts(Scheduler loop, Clock clock, AllocatorPort allocator, EventWriter events) {}
