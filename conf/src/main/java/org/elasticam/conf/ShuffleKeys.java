package org.elasticam.conf;

import static org.elasticam.conf.ConfigKey.key;

/**
 * The external shuffle service. {@code elasticam.shuffle.service.*} is read by the AM;
 * {@code elasticam.shuffle.port} and the limits are read by the NodeManager from its yarn-site.xml.
 */
public final class ShuffleKeys {

  public static final ConfigKey<Boolean> SERVICE_ENABLED =
      key("elasticam.shuffle.service.enabled", ValueType.BOOLEAN)
          .defaultValue(false)
          .doc("Executors register shuffle output with their NodeManager's shuffle service.")
          .build();

  public static final ConfigKey<String> SERVICE_NAME = key("elasticam.shuffle.service.name", ValueType.STRING)
      .defaultValue("elasticam_shuffle")
      .check(v -> v.matches("[A-Za-z_][A-Za-z0-9_]*"), "must match [A-Za-z_][A-Za-z0-9_]* (a YARN aux-service name)")
      .doc("The aux-service name configured in yarn.nodemanager.aux-services.")
      .build();

  public static final ConfigKey<Integer> PORT = key("elasticam.shuffle.port", ValueType.INT)
      .defaultValue(7447)
      .check(v -> v >= 0 && v <= 65535, "must be a port number (0-65535)")
      .doc("NodeManager side: the port the shuffle service listens on (0 = any).")
      .build();

  public static final ConfigKey<Integer> MAX_CONNECTIONS = key("elasticam.shuffle.maxConnections", ValueType.INT)
      .defaultValue(1024)
      .check(v -> v >= 1, "must be >= 1")
      .doc("NodeManager side: open connections beyond this get 429 and Retry-After.")
      .build();

  private ShuffleKeys() {}
}
