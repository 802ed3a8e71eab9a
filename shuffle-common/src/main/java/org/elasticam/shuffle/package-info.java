/**
 * What executors and the NodeManager's shuffle service share. {@code layout}: where a map task's
 * output lives and the index format; {@code protocol}: requests, their signing, block framing and
 * the encodings YARN carries (secret envelope, port metadata); {@code client}: the fetch client.
 */
package org.elasticam.shuffle;
