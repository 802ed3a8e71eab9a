package org.elasticam.shuffle.service.server;

import java.util.concurrent.ExecutorService;
import java.util.function.LongSupplier;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.time.Clock;

/** What every connection's handler shares. */
record ServerContext(
    ServerSettings settings,
    AppRegistry registry,
    ShuffleStats stats,
    InFlightBudget budget,
    ExecutorService disk,
    Clock clock,
    LongSupplier nanos,
    boolean tls,
    OwnedFileOpener opener,
    IndexCache indexes) {}
