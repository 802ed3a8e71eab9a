/** Matching granted containers to pending asks: node, then rack, then any. */
package org.elasticam.allocator.matching;
