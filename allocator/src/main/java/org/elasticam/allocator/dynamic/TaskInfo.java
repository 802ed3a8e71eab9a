package org.elasticam.allocator.dynamic;

/** One task attempt, as the policies see it. */
public record TaskInfo(int stageId, int attempt, int index, String executorId, boolean speculative) {}
