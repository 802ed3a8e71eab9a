/**
 * The embedded YARN cluster behind {@code bin/elasticam run} and the integration tests: a real
 * ResourceManager and N real NodeManagers in this JVM, talking RPC, NodeManager {@code i} on
 * loopback address {@code 127.0.0.(i+1)} so that every NodeManager is a host of its own.
 *
 * <p>Choices, and why:
 * <ul>
 *   <li>A plain {@code ResourceManager}, not a {@code MiniYARNCluster} with zero NodeManagers: the
 *       minicluster adds nothing then, creates {@code target/test/data/...} in the current directory
 *       (the user's, under {@code bin/elasticam run}) and waits up to 5 s at stop for AMs that did
 *       not unregister. The one thing it did that we need, unique metrics names for several
 *       NodeManagers in one JVM, {@link org.elasticam.embedded.EmbeddedCluster} does itself.
 *   <li>NodeManagers recover under supervision: a restart in place (same ports, same recovery
 *       directory) keeps the NodeId and the running containers, as a real NodeManager restart does.
 *       Recovery's state store is NMLeveldbStateStoreService, the only one a 3.4 NodeManager has;
 *       its native leveldbjni library (bundled for linux64 in leveldbjni-all) loads here. Stopping
 *       the cluster marks NodeManagers decommissioned first, so they kill their containers instead
 *       of leaving them running past this JVM.
 *   <li>NodeManager web UIs are off: Guice web apps in one JVM share one servlet pipeline, so the
 *       last one started would answer for all, the ResourceManager's included.
 *   <li>Containers get {@code JAVA_HOME} from {@link org.elasticam.embedded.EmbeddedContainerExecutor}.
 * </ul>
 */
package org.elasticam.embedded;
