/** Level-based reconciliation of pending asks against the target. */
package org.elasticam.allocator.reconcile;
