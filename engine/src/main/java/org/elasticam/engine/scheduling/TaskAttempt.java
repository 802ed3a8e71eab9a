package org.elasticam.engine.scheduling;

import java.util.Map;

/** One launched attempt of one task; {@code speculative} for a copy launched beside a slow attempt still running. */
public record TaskAttempt(long taskId, int stageId, int index, int attempt, String executorId, String host,
    Locality locality, long startMs, String taskClass, Map<String, String> params, boolean speculative) {}
