package org.elasticam.it;

import org.elasticam.embedded.ShuffleServiceInstall;
import org.junit.jupiter.api.BeforeAll;

/** The shaded jar on the NodeManagers' classpath (the README's first way). */
class ShuffleServiceClasspathIT extends ShuffleServiceCase {

  @BeforeAll
  static void start() throws Exception {
    startCluster("ShuffleServiceClasspathIT", ShuffleServiceInstall.Mode.CLASSPATH);
  }
}
