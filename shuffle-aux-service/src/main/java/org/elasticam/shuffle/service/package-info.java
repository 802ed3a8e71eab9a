/**
 * The NodeManager auxiliary service {@code elasticam_shuffle}. {@link
 * org.elasticam.shuffle.service.ElasticamShuffleService} is the thin adapter YARN loads; {@code
 * server} is the Netty front (knows nothing of Hadoop); {@code apps} holds applications, their
 * secrets and executors' confined dirs; {@code state} persists them for NodeManager recovery;
 * {@code metrics} publishes to metrics2.
 */
package org.elasticam.shuffle.service;
