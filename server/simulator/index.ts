/**
 * The plant simulator (the SIMULATOR vendor integration): deterministic weather, PV, loads,
 * battery and grid for every plant with `sim://` sensors, written through the readings store.
 */
export {
  DEFAULT_SIMULATION_SEED,
  MAX_CATCH_UP_DAYS,
  Simulator,
  simulateUpTo,
  type CatchUpOptions,
  type CatchUpResult,
  type SimulatorOptions,
} from './simulator.ts';
export { markFedExternally, externallyFed } from './externalFeeds.ts';
export { simulatedPlants, type SimulatedPlant, type SimulatedSensor } from './plantInventory.ts';
export { appendDayReadings, sensorReadings, type SimulatedSensorSpec } from './sensorReadings.ts';
export {
  createPlantSimulation,
  type PlantSimulationConfig,
  type SimulatedDay,
} from './plantSimulation.ts';
export { DEMO_HISTORY_DAYS, startSimulation, type SimulationSettings } from './startSimulation.ts';
