package org.elasticam.shuffle.service;

import java.time.Duration;
import java.util.Objects;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ShuffleKeys;
import org.elasticam.shuffle.service.server.ServerSettings;

/** Everything the service reads from the NodeManager's configuration ({@code elasticam.shuffle.*}). */
public final class ServiceSettings {

  private final ServerSettings server;
  private final boolean ssl;
  private final boolean deleteOnStop;
  private final Duration sweepInterval;
  private final String metricsName;
  private final ShuffleKeys.OwnerCheck ownerCheck;

  /**
   * @param server the network front's settings
   * @param ssl serve TLS with Hadoop's ssl-server.xml keystore
   * @param deleteOnStop delete an application's shuffle files at stopApplication
   * @param sweepInterval how often recovered applications YARN removed are dropped
   * @param metricsName the metrics2 source name
   * @param ownerCheck when files must be owned by the application's user
   */
  public ServiceSettings(ServerSettings server, boolean ssl, boolean deleteOnStop, Duration sweepInterval,
      String metricsName, ShuffleKeys.OwnerCheck ownerCheck) {
    this.server = server;
    this.ssl = ssl;
    this.deleteOnStop = deleteOnStop;
    this.sweepInterval = sweepInterval;
    this.metricsName = metricsName;
    this.ownerCheck = ownerCheck;
  }

  public ServerSettings server() {
    return server;
  }

  public boolean ssl() {
    return ssl;
  }

  public boolean deleteOnStop() {
    return deleteOnStop;
  }

  public Duration sweepInterval() {
    return sweepInterval;
  }

  public String metricsName() {
    return metricsName;
  }

  public ShuffleKeys.OwnerCheck ownerCheck() {
    return ownerCheck;
  }

  /** @throws org.elasticam.conf.ConfigException naming every broken key */
  public static ServiceSettings from(ElasticConf conf) {
    conf.validated();
    ServerSettings server = new ServerSettings(conf.getOptional(ShuffleKeys.HOST).filter(h -> !h.isEmpty()).orElse(null),
        conf.get(ShuffleKeys.PORT), conf.get(ShuffleKeys.MAX_CONNECTIONS), conf.get(ShuffleKeys.RETRY_AFTER),
        conf.get(ShuffleKeys.MAX_IN_FLIGHT_BYTES).bytes(), conf.get(ShuffleKeys.IDLE_TIMEOUT),
        conf.get(ShuffleKeys.IO_THREADS), conf.get(ShuffleKeys.DISK_THREADS), conf.get(ShuffleKeys.SIGNATURE_MAX_AGE),
        conf.get(ShuffleKeys.INDEX_CACHE_SIZE).bytes(), conf.get(ShuffleKeys.MAX_OPEN_FILES),
        conf.get(ShuffleKeys.NATIVE_TRANSPORT));
    return new ServiceSettings(server, conf.get(ShuffleKeys.SSL_ENABLED), conf.get(ShuffleKeys.DELETE_ON_STOP),
        conf.get(ShuffleKeys.RECOVERY_SWEEP_INTERVAL), conf.get(ShuffleKeys.METRICS_NAME),
        conf.get(ShuffleKeys.OWNER_CHECK));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ServiceSettings)) {
      return false;
    }
    ServiceSettings other = (ServiceSettings) o;
    return Objects.equals(server, other.server) && ssl == other.ssl && deleteOnStop == other.deleteOnStop
        && Objects.equals(sweepInterval, other.sweepInterval) && Objects.equals(metricsName, other.metricsName)
        && Objects.equals(ownerCheck, other.ownerCheck);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(server);
    h = 31 * h + Boolean.hashCode(ssl);
    h = 31 * h + Boolean.hashCode(deleteOnStop);
    h = 31 * h + Objects.hashCode(sweepInterval);
    h = 31 * h + Objects.hashCode(metricsName);
    return 31 * h + Objects.hashCode(ownerCheck);
  }

  @Override
  public String toString() {
    return "ServiceSettings[server=" + server + ", ssl=" + ssl + ", deleteOnStop=" + deleteOnStop
        + ", sweepInterval=" + sweepInterval + ", metricsName=" + metricsName + ", ownerCheck=" + ownerCheck + "]";
  }
}
