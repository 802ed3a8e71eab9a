package org.elasticam.am.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.elasticam.am.conf.HadoopConfigSource;
import org.elasticam.conf.ConfigProblem;
import org.elasticam.conf.ElasticConf;
import org.junit.jupiter.api.Test;

class AppAclsTest {

  private static ElasticConf conf(String... keyValues) {
    Configuration c = new Configuration(false);
    for (int i = 0; i < keyValues.length; i += 2) {
      c.set(keyValues[i], keyValues[i + 1]);
    }
    return new ElasticConf(new HadoopConfigSource(c));
  }

  @Test
  void theKeysBecomeYarnsAclsAsWritten() {
    assertEquals(Map.of(ApplicationAccessType.VIEW_APP, "alice,bob analysts", ApplicationAccessType.MODIFY_APP,
        " operators"), AppAcls.of(conf("elasticam.ui.view.acls", "alice,bob analysts",
            "elasticam.modify.acls", " operators")), "a groups-only ACL keeps its leading space");
    assertEquals(Map.of(ApplicationAccessType.VIEW_APP, "*"), AppAcls.of(conf("elasticam.ui.view.acls", "*")));
  }

  @Test
  void unsetKeysSetNoAclSoYarnsDefaultHolds() {
    assertEquals(Map.of(), AppAcls.of(conf()));
  }

  @Test
  void aListWithSpacesInsideIsRefusedBeforeSubmission() {
    List<ConfigProblem> problems = conf("elasticam.ui.view.acls", "alice, bob analysts").validate();
    assertEquals(1, problems.size(), problems.toString());
    assertEquals("elasticam.ui.view.acls", problems.get(0).key());
    assertEquals(List.of(), conf("elasticam.modify.acls", " operators", "elasticam.ui.view.acls", "alice").validate());
  }
}
