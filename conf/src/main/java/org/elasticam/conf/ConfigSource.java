package org.elasticam.conf;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where raw configuration values come from. The only method a source needs: Hadoop-side modules
 * adapt {@code Configuration} (yarn-site.xml, {@code -D}, {@code --conf}) into this, so this module
 * stays free of Hadoop.
 */
@FunctionalInterface
public interface ConfigSource {

  /** The raw value of {@code key}, or empty when the key is not set. */
  Optional<String> get(String key);

  /** A source over a fixed map; handy for tests, the simulator and {@code --conf} overrides. */
  static ConfigSource of(Map<String, String> values) {
    Map<String, String> copy = new HashMap<>(values);
    // A null key or value is the caller's bug, not an unset key.
    if (copy.containsKey(null) || copy.containsValue(null)) {
      throw new NullPointerException("a configuration source holds no null keys or values");
    }
    return key -> Optional.ofNullable(copy.get(key));
  }

  /** Values from {@code overrides} win over this source's. */
  default ConfigSource overriddenBy(ConfigSource overrides) {
    ConfigSource base = this;
    return key -> {
      Optional<String> value = overrides.get(key);
      return value.isPresent() ? value : base.get(key);
    };
  }
}
