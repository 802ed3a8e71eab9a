package org.elasticam.conf;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every known key, in declaration order, grouped by the holder that declares it. */
public final class AllKeys {

  /** The holders, in the order the docs list them. */
  private static final Map<String, Class<?>> SECTIONS = sections();

  private static final List<ConfigKey<?>> ALL = collect();

  private static final Map<String, ConfigKey<?>> BY_NAME = byName();

  private AllKeys() {}

  private static Map<String, Class<?>> sections() {
    Map<String, Class<?>> m = new LinkedHashMap<>();
    m.put("Dynamic allocation (batch)", DynamicAllocationKeys.class);
    m.put("Dynamic allocation (streaming)", StreamingKeys.class);
    m.put("Executors, tasks, locality, event log", ExecutorKeys.class);
    m.put("YARN", YarnKeys.class);
    m.put("Shuffle service", ShuffleKeys.class);
    return Collections.unmodifiableMap(m);
  }

  public static List<ConfigKey<?>> all() {
    return ALL;
  }

  public static Map<String, List<ConfigKey<?>>> bySection() {
    Map<String, List<ConfigKey<?>>> out = new LinkedHashMap<>();
    SECTIONS.forEach((title, holder) -> out.put(title, keysOf(holder)));
    return out;
  }

  public static Optional<ConfigKey<?>> find(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  private static List<ConfigKey<?>> collect() {
    List<ConfigKey<?>> keys = new ArrayList<>();
    SECTIONS.values().forEach(h -> keys.addAll(keysOf(h)));
    return Collections.unmodifiableList(keys);
  }

  private static Map<String, ConfigKey<?>> byName() {
    Map<String, ConfigKey<?>> m = new LinkedHashMap<>();
    for (ConfigKey<?> k : ALL) {
      if (m.put(k.name(), k) != null) {
        throw new IllegalStateException("key declared twice: " + k.name());
      }
    }
    return Collections.unmodifiableMap(m);
  }

  private static List<ConfigKey<?>> keysOf(Class<?> holder) {
    List<ConfigKey<?>> keys = new ArrayList<>();
    for (Field f : holder.getDeclaredFields()) {
      int mod = f.getModifiers();
      if (Modifier.isStatic(mod) && Modifier.isPublic(mod) && ConfigKey.class.isAssignableFrom(f.getType())) {
        try {
          keys.add((ConfigKey<?>) f.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return keys;
  }
}
