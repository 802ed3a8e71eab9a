/**
 * How ElasticAM's containers (the AM and executors) log: log4j 1 set up from the container's
 * properties file without log4j's bean introspection, and a line layout without Calendar dates.
 */
package org.elasticam.executor.logging;
