/** The executor process: its session with the driver and the slots that run tasks. */
package org.elasticam.executor;
