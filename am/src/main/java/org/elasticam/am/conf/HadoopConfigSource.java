package org.elasticam.am.conf;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.conf.ConfigSource;
import org.elasticam.conf.ElasticConf;

/**
 * Hadoop {@link Configuration} as a {@link ConfigSource}: yarn-site.xml, {@code -D key=value} from
 * GenericOptionsParser and {@code --conf key=value} (set into the same Configuration) all reach
 * ElasticAM's typed keys this way.
 */
public final class HadoopConfigSource implements ConfigSource {

  private final Configuration conf;

  public HadoopConfigSource(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public Optional<String> get(String key) {
    return Optional.ofNullable(conf.get(key));
  }

  /** Every {@code elasticam.*} key that is set, for unknown-key warnings. */
  public Set<String> elasticamKeys() {
    Set<String> keys = new TreeSet<>();
    for (String suffix : conf.getPropsWithPrefix(ElasticConf.PREFIX).keySet()) {
      keys.add(ElasticConf.PREFIX + suffix);
    }
    return keys;
  }
}
