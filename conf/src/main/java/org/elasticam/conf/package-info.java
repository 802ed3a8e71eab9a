/**
 * Typed configuration: every {@code elasticam.*} key with its type, default, doc and check
 * ({@code *Keys}), typed reading and derived values ({@link org.elasticam.conf.ElasticConf}),
 * validation of every rule at once, unknown-key warnings and the generated docs. No Hadoop here:
 * Hadoop-side modules adapt {@code Configuration} into {@link org.elasticam.conf.ConfigSource}.
 */
package org.elasticam.conf;
