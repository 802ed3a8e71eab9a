/**
 * The job API user jars compile against: a {@link org.elasticam.api.Job} is a list of
 * {@link org.elasticam.api.Stage}s of {@link org.elasticam.api.Task}s. No Hadoop, no dependencies.
 */
package org.elasticam.api;
