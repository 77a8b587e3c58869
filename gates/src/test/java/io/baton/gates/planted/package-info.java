/**
 * Planted violations, one per architecture rule, with allowed neighbours that the rules must not
 * report. Each subpackage stands for a module ({@code journal}, {@code core}, {@code postgres},
 * {@code etcd}, {@code node}) or a rule's own playground ({@code cycle}, {@code clock}). Never
 * imported by {@code ArchitectureTest}: only {@code PlantedViolationsTest} reads them.
 */
package io.baton.gates.planted;
