package org.elasticam.workload;

/** Stage {@code stageId} is to be submitted at {@code atMs}, on the caller's time line. */
public record Submission(int stageId, long atMs) {}
