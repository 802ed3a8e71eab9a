package org.elasticam.allocator;

import java.util.HashMap;
import java.util.Map;
import org.elasticam.conf.ElasticConf;

/** Allocator settings from a few overrides of the defaults. */
final class TestSettings {

  private TestSettings() {}

  static AllocatorSettings with(String... kv) {
    Map<String, String> m = new HashMap<>();
    m.put("elasticam.yarn.placement", "pack");
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return AllocatorSettings.from(ElasticConf.of(m).validated());
  }
}
