/**
 * Decisions as data: the sealed set of actions the core asks the adapters to carry out, and the
 * plan that orders them. Adapters apply plans; they never decide.
 */
package org.elasticam.allocator.plan;
