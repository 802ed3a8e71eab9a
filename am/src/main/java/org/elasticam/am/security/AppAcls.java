package org.elasticam.am.security;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.elasticam.conf.ConfigKey;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.YarnKeys;

/**
 * The application's YARN ACLs, from {@code elasticam.ui.view.acls} (VIEW_APP) and {@code
 * elasticam.modify.acls} (MODIFY_APP), in YARN's format ({@code "user1,user2 group1,group2"}).
 * The client sets them on the AM's launch context, and the ResourceManager enforces them on its
 * own pages, reports and kills; the AM holds its live page to the same VIEW_APP ACL. An unset key
 * sets no ACL, and YARN's default lets only the owner and YARN's admins in. Neither names the
 * submitting user: YARN lets an application's owner do everything.
 */
public final class AppAcls {

  private AppAcls() {}

  public static Map<ApplicationAccessType, String> of(ElasticConf elastic) {
    Map<ApplicationAccessType, String> acls = new EnumMap<>(ApplicationAccessType.class);
    asWritten(elastic, YarnKeys.UI_VIEW_ACLS).ifPresent(v -> acls.put(ApplicationAccessType.VIEW_APP, v));
    asWritten(elastic, YarnKeys.MODIFY_ACLS).ifPresent(v -> acls.put(ApplicationAccessType.MODIFY_APP, v));
    return acls;
  }

  /**
   * The value as the user wrote it, not as the string type reads it (trimmed): in YARN's format
   * the groups follow a space, so a groups-only ACL (" admins") starts with one.
   */
  private static Optional<String> asWritten(ElasticConf elastic, ConfigKey<String> key) {
    return elastic.source().get(key.name());
  }
}
