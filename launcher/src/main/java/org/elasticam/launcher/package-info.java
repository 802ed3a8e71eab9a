/**
 * Starting executors: the {@link org.elasticam.launcher.ExecutorLauncher} contract the AM calls
 * with each granted container.
 */
package org.elasticam.launcher;
