package org.elasticam.shuffle.service;

import java.time.Duration;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ShuffleKeys;
import org.elasticam.shuffle.service.server.ServerSettings;

/**
 * Everything the service reads from the NodeManager's configuration ({@code elasticam.shuffle.*}).
 *
 * @param server the network front's settings
 * @param ssl serve TLS with Hadoop's ssl-server.xml keystore
 * @param deleteOnStop delete an application's shuffle files at stopApplication
 * @param sweepInterval how often recovered applications YARN removed are dropped
 * @param metricsName the metrics2 source name
 * @param ownerCheck when files must be owned by the application's user
 */
public record ServiceSettings(ServerSettings server, boolean ssl, boolean deleteOnStop, Duration sweepInterval,
    String metricsName, ShuffleKeys.OwnerCheck ownerCheck) {

  /** @throws org.elasticam.conf.ConfigException naming every broken key */
  public static ServiceSettings from(ElasticConf conf) {
    conf.validated();
    ServerSettings server = new ServerSettings(conf.getOptional(ShuffleKeys.HOST).filter(h -> !h.isEmpty()).orElse(null),
        conf.get(ShuffleKeys.PORT), conf.get(ShuffleKeys.MAX_CONNECTIONS), conf.get(ShuffleKeys.RETRY_AFTER),
        conf.get(ShuffleKeys.MAX_IN_FLIGHT_BYTES).bytes(), conf.get(ShuffleKeys.IDLE_TIMEOUT),
        conf.get(ShuffleKeys.IO_THREADS), conf.get(ShuffleKeys.DISK_THREADS), conf.get(ShuffleKeys.SIGNATURE_MAX_AGE),
        conf.get(ShuffleKeys.INDEX_CACHE_SIZE).bytes());
    return new ServiceSettings(server, conf.get(ShuffleKeys.SSL_ENABLED), conf.get(ShuffleKeys.DELETE_ON_STOP),
        conf.get(ShuffleKeys.RECOVERY_SWEEP_INTERVAL), conf.get(ShuffleKeys.METRICS_NAME),
        conf.get(ShuffleKeys.OWNER_CHECK));
  }
}
