/**
 * Where new container requests should ask to land: locality-preferred placement from the tasks'
 * hints, and spread placement for requests without locality.
 */
package org.elasticam.allocator.placement;
