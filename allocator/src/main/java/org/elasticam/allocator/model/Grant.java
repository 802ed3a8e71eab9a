package org.elasticam.allocator.model;

/**
 * A container the ResourceManager allocated to us.
 *
 * @param rack the host's rack as resolved by the adapter, or null when unknown
 * @param localityFree whether it came under the locality-free priority
 */
public record Grant(ContainerRef container, String host, String rack, boolean localityFree) {}
