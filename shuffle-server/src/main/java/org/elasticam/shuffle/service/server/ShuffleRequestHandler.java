package org.elasticam.shuffle.service.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.service.apps.AppEntry;
import org.elasticam.shuffle.service.apps.ConfinementException;
import org.elasticam.shuffle.service.apps.ShuffleRemoval;
import org.elasticam.shuffle.service.server.BlockResolver.AppFiles;
import org.elasticam.shuffle.service.server.BlockResolver.ResolvedFetch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's requests, one at a time: while a request is being answered the channel reads
 * nothing more (pipelined requests wait their turn in a queue), so a client cannot pile up work.
 * Authentication is a pure check here; file work runs on the disk threads and its outcome comes
 * back to this channel's event loop.
 */
final class ShuffleRequestHandler extends SimpleChannelInboundHandler<ShuffleCall> {

  private static final Logger LOG = LoggerFactory.getLogger(ShuffleRequestHandler.class);

  private final ServerContext sc;
  private final ArrayDeque<ShuffleCall> queue = new ArrayDeque<>();
  private boolean busy;

  ShuffleRequestHandler(ServerContext sc) {
    this.sc = sc;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, ShuffleCall call) {
    queue.add(call);
    if (!busy) {
      next(ctx);
    }
  }

  private void next(ChannelHandlerContext ctx) {
    ShuffleCall call = queue.poll();
    if (call == null) {
      busy = false;
      ctx.channel().config().setAutoRead(true);
      ctx.read();
      return;
    }
    busy = true;
    ctx.channel().config().setAutoRead(false);
    if (call instanceof ShuffleCall.Register) {
      ShuffleCall.Register r = (ShuffleCall.Register) call;
      authenticated(ctx, call, r.request().appId(), r.signed(), app -> register(ctx, r));
    } else if (call instanceof ShuffleCall.RemoveShuffle) {
      ShuffleCall.RemoveShuffle r = (ShuffleCall.RemoveShuffle) call;
      authenticated(ctx, call, r.request().appId(), r.signed(), app -> removeShuffle(ctx, r, app));
    } else if (call instanceof ShuffleCall.Fetch) {
      ShuffleCall.Fetch f = (ShuffleCall.Fetch) call;
      authenticated(ctx, call, f.request().appId(), f.signed(), app -> fetch(ctx, f, app));
    } else {
      reject(ctx, call, ((ShuffleCall.Rejected) call).rejection());
    }
  }

  private void authenticated(ChannelHandlerContext ctx, ShuffleCall call, String appId, ShuffleCall.Signed signed,
      Consumer<AppEntry> then) {
    Optional<AppEntry> app = sc.registry().app(appId);
    Optional<Rejection> denied = RequestAuth.check(app, signed, sc.clock().nowMs(), sc.settings().signatureMaxAge());
    if (denied.isPresent()) {
      reject(ctx, call, denied.get());
    } else {
      then.accept(app.get());
    }
  }

  private void register(ChannelHandlerContext ctx, ShuffleCall.Register call) {
    onDisk(ctx, call, () -> {
      try {
        sc.registry().registerExecutor(call.request().appId(), call.request().executorId(), call.request().dirs());
        return Rejection.of(200, "registered");
      } catch (ConfinementException e) {
        return Rejection.of(403, e.getMessage());
      } catch (IllegalStateException e) {
        return Rejection.of(401, "unknown application");
      }
    }, r -> reject(ctx, call, r));
  }

  /** Deletes a shuffle no stage will read again, under every dir the application's executors registered here. */
  private void removeShuffle(ChannelHandlerContext ctx, ShuffleCall.RemoveShuffle call, AppEntry app) {
    onDisk(ctx, call, () -> {
      int shuffleId = call.request().shuffleId();
      Set<Path> dirs = new LinkedHashSet<>();
      app.executors().values().forEach(dirs::addAll);
      List<Path> shuffleDirs = new ArrayList<>();
      dirs.forEach(d -> shuffleDirs.add(ShuffleLayout.shuffleDir(d, shuffleId)));
      sc.keptFiles().closeUnder(app.appId(), shuffleDirs);
      sc.openDirs().closeUnder(app.appId(), shuffleDirs);
      try {
        long files = ShuffleRemoval.remove(new ArrayList<>(dirs), shuffleId);
        LOG.debug("Removed shuffle {} of {}: {} file(s)", shuffleId, app.appId(), files);
        return Rejection.of(200, "removed " + files + " file(s)");
      } catch (IOException e) {
        LOG.warn("Could not remove shuffle {} of {}: {}", shuffleId, app.appId(), e.toString());
        return Rejection.of(500, "could not remove shuffle " + shuffleId);
      }
    }, r -> reject(ctx, call, r));
  }

  private void fetch(ChannelHandlerContext ctx, ShuffleCall.Fetch call, AppEntry app) {
    Optional<List<Path>> dirs = app.executorDirs(call.request().executorId());
    if (!dirs.isPresent()) {
      reject(ctx, call, Rejection.of(404, "executor " + call.request().executorId() + " is not registered"));
      return;
    }
    onDisk(ctx, call, () -> {
      try {
        return BlockResolver.resolve(call.request(), new AppFiles(app.appId(), app.user(), dirs.get(), sc.indexes(),
            sc.keptFiles(), sc.openDirs()), sc.clock().nowMs());
      } catch (RejectedException e) {
        return e.rejection();
      }
    }, result -> {
      if (result instanceof Rejection) {
        reject(ctx, call, (Rejection) result);
      } else {
        admit(ctx, call, (ResolvedFetch) result);
      }
    });
  }

  /** Runs blocking file work off the event loop; 503 when the disk threads' queue is full. */
  private <T> void onDisk(ChannelHandlerContext ctx, ShuffleCall call, Callable<T> work, Consumer<T> then) {
    try {
      sc.disk().execute(() -> {
        Runnable back;
        try {
          T result = work.call();
          back = () -> then.accept(result);
        } catch (Exception | Error e) {
          LOG.warn("Shuffle file work failed", e);
          back = () -> reject(ctx, call, Rejection.closing(500, "internal error"));
        }
        try {
          ctx.executor().execute(back);
        } catch (RejectedExecutionException e) {
          LOG.debug("The event loop is shutting down; dropping a response");
        }
      });
    } catch (RejectedExecutionException e) {
      reject(ctx, call, Rejection.of(503, "the service is busy; retry later"));
    }
  }

  private void admit(ChannelHandlerContext ctx, ShuffleCall.Fetch call, ResolvedFetch fetch) {
    Runnable start = () -> ResponseStreamer.stream(ctx, fetch, call.keepAlive(), sc,
        ok -> done(ctx, call, ok ? 200 : 500, call.keepAlive() && ok));
    if (sc.budget().tryAdmit(fetch.responseBytes(), call.arrivedNanos(), ctx.executor(), start)) {
      start.run();
    }
  }

  private void reject(ChannelHandlerContext ctx, ShuffleCall call, Rejection r) {
    if (!ctx.channel().isActive()) {
      done(ctx, call, r.status(), false);
      return;
    }
    boolean keepAlive = r.keepAlive() && call.keepAlive();
    Rejection sent = keepAlive == r.keepAlive() ? r : new Rejection(r.status(), r.message(), false);
    Responses.text(ctx, sent, sc.settings().retryAfter())
        .addListener(f -> done(ctx, call, r.status(), keepAlive && f.isSuccess()));
  }

  private void done(ChannelHandlerContext ctx, ShuffleCall call, int status, boolean keepAlive) {
    sc.stats().responded(status, sc.nanos().getAsLong() - call.arrivedNanos());
    if (!keepAlive) {
      queue.clear();
      ctx.close();
      return;
    }
    next(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof IdleStateEvent) {
      LOG.debug("Closing idle shuffle connection {}", ctx.channel().remoteAddress());
      ctx.close();
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("Shuffle connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
