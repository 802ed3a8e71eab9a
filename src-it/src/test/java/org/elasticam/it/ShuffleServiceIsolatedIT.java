package org.elasticam.it;

import org.elasticam.embedded.ShuffleServiceInstall;
import org.junit.jupiter.api.BeforeAll;

/** The shaded jar through yarn.nodemanager.aux-services.elasticam_shuffle.classpath (the README's second way). */
class ShuffleServiceIsolatedIT extends ShuffleServiceCase {

  @BeforeAll
  static void start() throws Exception {
    startCluster("ShuffleServiceIsolatedIT", ShuffleServiceInstall.Mode.ISOLATED);
  }
}
