package org.elasticam.shuffle.service;

import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.conf.ConfigSource;

/** The NodeManager's configuration (its yarn-site.xml) as ElasticAM's config source. */
final class HadoopConfSource implements ConfigSource {

  private final Configuration conf;

  HadoopConfSource(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public Optional<String> get(String key) {
    return Optional.ofNullable(conf.get(key));
  }
}
