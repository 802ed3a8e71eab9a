/**
 * The allocation ledger: pending asks, held containers and their executors, and the expectations
 * (asks sent, releases sent) that make every round idempotent.
 */
package org.elasticam.allocator.ledger;
