/** Failure windows and node exclusion: when executor failures fail the application or a node. */
package org.elasticam.allocator.health;
