package org.elasticam.allocator.exit;

/**
 * What a container's exit means for the application.
 *
 * @param countsAsFailure counts toward {@code elasticam.yarn.maxExecutorFailures}
 * @param blamesNode the node is at fault: a failure counts toward excluding it; an exit that is no
 *     failure of the application's but the node's own (its disks failed) excludes it at once
 * @param kind a short machine-readable reason: {@code released}, {@code preempted}, {@code lost},
 *     {@code failed}, {@code memory}, {@code disks}, {@code app_end}, {@code decommissioned}
 * @param message one line for a user: what happened and what to do about it
 */
public record ExitVerdict(boolean countsAsFailure, boolean blamesNode, String kind, String message) {}
