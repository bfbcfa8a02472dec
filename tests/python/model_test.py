"""Model, Data and the stepping functions from Python against the command (its time series and
summary.json, printed to 17 digits: equal means bit-identical), against themselves restarted
(reset, a restored state, a snapshot, another thread), and the contact arrays against Hertz's closed form.

Usage: model_test.py PATH/TO/surfdb SOURCE_DIR   (PYTHONPATH=build/python)
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import tomllib
import unittest

import numpy as np
import surfdb

SURFDB, SOURCE = sys.argv[1:3]
SAMPLES = os.path.join(SOURCE, "samples")
BALL = os.path.join(SAMPLES, "integrators/bouncing_ball.toml")  # a 4 g ball bouncing on a floor
# (scenario, overrides, end time, fixed step or None): one per integrator, point contact on
# analytic surfaces, the slider-crank's cup and ball (analytic, the paper's AB4 at 1 us through
# the first impact), the primitive scenes' billiard (groups of pairs from the broad phase).
SCENES = [
    (BALL, {"simulation.integrator": "adams"}, 0.05, None),
    (BALL, {"simulation.integrator": "bdf"}, 0.05, None),
    (BALL, {"simulation.integrator": "dormand_prince"}, 0.05, None),
    (BALL, {"simulation.integrator": "rk4", "simulation.step": 1e-5}, 0.05, 1e-5),
    (BALL, {"simulation.integrator": "ab4", "simulation.step": 1e-5}, 0.05, 1e-5),
    (os.path.join(SAMPLES, "slider_crank_cup_ball/hertz_analytic.toml"), {}, 0.025, 1e-6),
    (os.path.join(SAMPLES, "primitive_scenes/billiard.toml"), {}, 0.2, None),
]
# The demonstration on its tables (samples/slider_crank_cup_ball/prepare.sh), through the first impact.
if os.path.exists(os.path.join(SAMPLES, "slider_crank_cup_ball/tables/cup.sdb")):
    SCENES += [(os.path.join(SAMPLES, "slider_crank_cup_ball/hertz.toml"), {}, 0.025, 1e-6),
               (os.path.join(SAMPLES, "slider_crank_cup_ball/hertz_variable_step.toml"), {}, 0.025, None)]


def command(scenario, overrides, end_time, out):
    """The command's final row of the time series and its summary."""
    sets = [a for k, v in overrides.items() for a in ("--set", f"{k}={v}")]
    subprocess.run([SURFDB, "simulate", scenario, "-o", out, "--end-time", repr(end_time), "--no-plots", "--quiet", *sets],
                   check=True)
    with open(os.path.join(out, "time_series.csv")) as f:
        lines = f.read().strip().splitlines()
    header = lines[0].split(",")
    with open(os.path.join(out, "summary.json")) as f:
        return dict(zip(header, (float(x) for x in lines[-1].split(",")))), json.load(f)


def run_to_end(model, data):
    """A variable-step integrator's own steps to the model's end, as a Python loop."""
    while data.time < model.end_time:
        if not surfdb.step(model, data):
            break


def snapshot(data):
    return data.time, data.state.copy(), data.contacts(), data.summary()


class SteppedAsTheCommandRuns(unittest.TestCase):
    def test_states_and_summaries_are_the_commands(self):
        for scenario, overrides, end_time, step in SCENES:
            with self.subTest(scenario=os.path.basename(scenario), **{k: str(v) for k, v in overrides.items()}):
                with tempfile.TemporaryDirectory() as out:
                    row, summary = command(scenario, overrides, end_time, out)
                model = surfdb.Model(scenario, set={**overrides, "simulation.end_time": end_time})
                data = surfdb.Data(model)
                if step:  # fixed steps: count them (k h may fall short of the end)
                    for _ in range(round(end_time / step)):
                        self.assertTrue(surfdb.step(model, data))
                else:
                    run_to_end(model, data)
                self.assertEqual(data.time, row["t"])
                for k, name in enumerate(model.body_names):
                    for axis, c in (("x", 0), ("y", 1), ("z", 2)):
                        self.assertEqual(data.position[k, c], row[f"{name}_{axis}"])
                        self.assertEqual(data.velocity[k, c], row[f"{name}_v{axis}"])
                mine = data.summary()
                self.assertEqual(mine["status"], summary["status"])
                for key in ("end_time", "steps", "rhs_evaluations", "integrator_failures", "constraint_drift"):
                    self.assertEqual(mine[key], summary[key], key)
                for key in ("initial", "final", "dissipated"):
                    self.assertEqual(mine["energy"][key], summary["energy"][key], key)
                for a, b in zip(mine["contacts"], summary["contacts"]):
                    for key in ("impacts", "max_indentation", "first_contact_time", "solver_failures"):
                        self.assertEqual(a[key], b[key], key)

    def test_simulate_takes_overrides_as_the_command_does(self):
        overrides = {"simulation.integrator": "rk4", "simulation.step": 2e-5, "contact.ball_floor.stiffness": 4e8}
        with tempfile.TemporaryDirectory() as out:
            _, summary = command(BALL, overrides, 0.05, out)
        mine = surfdb.simulate(BALL, set=overrides)
        self.assertEqual(mine["steps"], summary["steps"])  # 2500, not the default step's
        self.assertEqual(mine["energy"]["final"], summary["energy"]["final"])
        self.assertEqual(mine["contacts"][0]["max_indentation"], summary["contacts"][0]["max_indentation"])
        with self.assertRaisesRegex(surfdb.ScenarioError, "marble"):
            surfdb.Model(BALL, set={"body.marble.mass": 0.01})


class RunsAgain(unittest.TestCase):
    def test_reset_runs_the_first_run_again(self):
        model = surfdb.Model(BALL)
        data = surfdb.Data(model)
        position = data.position  # a view taken before: the state's storage stays put
        run_to_end(model, data)
        first = snapshot(data)
        surfdb.reset(model, data)
        self.assertEqual(data.time, 0.0)
        np.testing.assert_array_equal(position, [[0.0, 0.0, 0.006]])
        run_to_end(model, data)
        self.assert_same(first, snapshot(data))

    def test_a_restored_state_runs_on_alike(self):
        for overrides in ({"simulation.integrator": "adams"}, {"simulation.integrator": "ab4", "simulation.step": 1e-5}):
            with self.subTest(**overrides):
                model = surfdb.Model(BALL, set=overrides)
                data = surfdb.Data(model)
                surfdb.advance(model, data, 0.0142)  # mid-flight, before the first impact at 14.3 ms
                saved = (data.time, data.state.copy())
                results = []
                for _ in range(2):
                    surfdb.restore(model, data, *saved)
                    surfdb.advance(model, data, 0.03)
                    results.append(snapshot(data))
                self.assertGreater(results[0][3]["contacts"][0]["impacts"], 0)
                self.assert_same(*results)

    def test_a_snapshot_runs_on_as_the_run_went_on_from_it(self):
        # Saved inside the first impact (14.3 ms on, about 0.4 ms long), after a velocity written
        # by hand and steps of both step() and advance(): restored into the data saved and into
        # another, the run on is the one that went on from the save, bit for bit.
        for integrator in ("adams", "bdf", "dormand_prince"):
            with self.subTest(integrator=integrator):
                model = surfdb.Model(BALL, set={"simulation.integrator": integrator})
                data, other = surfdb.Data(model), surfdb.Data(model)
                surfdb.advance(model, data, 0.005)
                data.velocity[0, 0] = 0.01
                for _ in range(20):
                    surfdb.step(model, data)
                surfdb.advance(model, data, 0.0144)
                saved = surfdb.save(model, data)
                self.assertEqual(saved.time, data.time)
                surfdb.advance(model, data, 0.03)
                went_on = snapshot(data)
                for target in (data, other):
                    surfdb.restore(model, target, saved)
                    self.assertEqual(target.time, saved.time)
                    surfdb.advance(model, target, 0.03)
                    self.assert_same(went_on, snapshot(target))
                self.assertGreater(went_on[3]["contacts"][0]["impacts"], 0)

    def test_two_data_on_two_threads_give_what_each_gives_alone(self):
        self.check_threads(surfdb.Model(BALL, set={"simulation.integrator": "bdf"}), 0.002, 0.04)

    @unittest.skipUnless(os.path.exists(os.path.join(SAMPLES, "slider_crank_cup_ball/tables/cup.sdb")),
                         "samples/slider_crank_cup_ball/prepare.sh not run")
    def test_two_data_on_the_same_tables_on_two_threads_give_what_each_gives_alone(self):
        # The demonstration's ball into the cup (one set of mapped tables, two windows each).
        model = surfdb.Model(os.path.join(SAMPLES, "slider_crank_cup_ball/hertz.toml"), set={"simulation.end_time": 0.025})
        self.check_threads(model, 0.0005, 0.025)

    def check_threads(self, model, raise_by, end_time):
        def make(drop):
            data = surfdb.Data(model)
            data.position[-1, 2] += drop  # the last body (the ball) dropped from higher
            return data
        alone = []
        for drop in (0.0, raise_by):
            data = make(drop)
            surfdb.advance(model, data, end_time)
            alone.append(snapshot(data))
        datas = [make(0.0), make(raise_by)]
        threads = [threading.Thread(target=surfdb.advance, args=(model, d, end_time)) for d in datas]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for a, d in zip(alone, datas):
            self.assert_same(a, snapshot(d))
        self.assertNotEqual(alone[0][3]["energy"]["final"], alone[1][3]["energy"]["final"])
        self.assertGreater(alone[0][3]["contacts"][0]["impacts"], 0)

    def assert_same(self, a, b):
        self.assertEqual(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
        for key in a[2]:
            np.testing.assert_array_equal(a[2][key], b[2][key])
        self.assertEqual(a[3], b[3])


class StateArrays(unittest.TestCase):
    def test_contacts_are_hertz_on_the_floor(self):
        model = surfdb.Model(BALL)
        data = surfdb.Data(model)
        self.assertEqual(model.body_names, ["ball"])
        self.assertEqual(data.initial_penetrations, [])
        touching = surfdb.Data(surfdb.Model(BALL, set={"body.ball.position": [0.0, 0.0, 0.005 - 1e-8]}))
        [p] = touching.initial_penetrations  # 10 nm deep, within the default tolerance (2.5 um here)
        self.assertEqual((p["contact"], p["surface_i"], p["surface_j"]), ("ball_floor", "ball", "floor"))
        self.assertAlmostEqual(p["depth"], 1e-8, delta=1e-15)
        with self.assertRaisesRegex(surfdb.InitialPenetrationError, "bouncing_ball.toml: contact 'ball_floor'.*inside each other"):
            surfdb.Data(surfdb.Model(BALL, set={"body.ball.position": [0.0, 0.0, 0.004]}))
        self.assertEqual(data.contacts()["pair"].shape, (0,))
        while data.contacts()["pair"].size == 0:  # to the first impact
            surfdb.step(model, data)
        for _ in range(5):
            surfdb.step(model, data)
        c = data.contacts()
        self.assertEqual(c["pair"].tolist(), [0])
        depth = 0.005 - data.position[0, 2]  # the ball's radius less its centre's height
        self.assertAlmostEqual(c["indentation"][0] / depth, 1.0, delta=1e-9)
        np.testing.assert_array_equal(c["normal"][0], [0, 0, 1])
        self.assertAlmostEqual(c["force"][0, 2] / (1e8 * depth**1.5), 1.0, delta=1e-8)  # K delta^1.5, no damping
        self.assertAlmostEqual(c["point"][0, 2], -depth / 2, delta=1e-15)  # midway between the surfaces

    def test_arrays_write_into_the_run(self):
        model = surfdb.Model(BALL)
        data = surfdb.Data(model)
        self.assertEqual(data.position.shape, (1, 3))
        np.testing.assert_array_equal(data.orientation, [[1, 0, 0, 0]])
        data.position[0, 2] = 0.5  # far above the floor: free fall from rest for 0.01 s
        surfdb.advance(model, data, 0.01)
        self.assertAlmostEqual(data.position[0, 2], 0.5 - 9.81 * 0.01**2 / 2, delta=1e-9)
        self.assertAlmostEqual(data.velocity[0, 2], -9.81 * 0.01, delta=1e-9)
        data.angular_velocity = np.array([[0.0, 0.0, 3.0]])  # world axes
        data.velocity = np.zeros((1, 3))
        surfdb.advance(model, data, 0.02)
        np.testing.assert_allclose(data.angular_velocity, [[0, 0, 3.0]], atol=1e-12)
        angle = 3.0 * (data.time - 0.01)
        np.testing.assert_allclose(data.orientation[0], [np.cos(angle / 2), 0, 0, np.sin(angle / 2)], atol=1e-9)
        with self.assertRaises(ValueError):
            data.angular_velocity[0, 0] = 1.0  # a copy: refused rather than lost
        self.assertEqual(data.status, "ok")
        # Kinetic (translation and spin) and gravitational energy, the floor's height its origin.
        v, z = data.velocity[0, 2], data.position[0, 2]
        self.assertAlmostEqual(data.energy["mechanical"], 0.5 * 0.004 * v**2 + 0.5 * 4e-8 * 9.0 + 0.004 * 9.81 * z,
                               delta=1e-12)


class DropSweepExample(unittest.TestCase):
    def test_the_documented_sweep_meets_hertz(self):
        example = os.path.join(SAMPLES, "embedding/python/drop_sweep.py")
        out = subprocess.run([sys.executable, example, BALL], check=True, capture_output=True, text=True).stdout
        rows = [line.split() for line in out.strip().splitlines()[1:]]
        self.assertEqual(len(rows), 4)
        for drop, _, depth, exact, status in rows:
            # Sampled at the accepted steps: measured within 5e-4 of the peak's closed form.
            self.assertAlmostEqual(float(depth) / float(exact), 1.0, delta=1e-3, msg=drop)
            self.assertEqual(status, "ok")


class BuiltInCode(unittest.TestCase):
    def test_a_scenario_dict_runs_as_its_file(self):
        # The files read into dicts (tomllib), given back as models: the same steps, bit for bit.
        for scenario, overrides, end_time, _ in SCENES[1:2] + SCENES[5:]:
            with self.subTest(scenario=os.path.basename(scenario)):
                with open(scenario, "rb") as f:
                    tables = tomllib.load(f)
                sets = {**overrides, "simulation.end_time": end_time}
                models = (surfdb.Model(scenario, set=sets),
                          surfdb.Model(tables, set=sets, folder=os.path.dirname(scenario)))
                runs = [surfdb.Data(m) for m in models]
                for m, d in zip(models, runs):
                    for _ in range(300):
                        self.assertTrue(surfdb.step(m, d))
                self.assertEqual(models[0].body_names, models[1].body_names)
                self.assertEqual(runs[0].time, runs[1].time)
                np.testing.assert_array_equal(runs[0].state, runs[1].state)

    def test_a_ball_built_in_code_lands_when_free_fall_says(self):
        radius, drop, g = 0.005, 1e-3, 9.81
        model = surfdb.Model({
            "simulation": {"end_time": 0.02, "integrator": "bdf"},
            "body": [{"name": "ball", "mass": 0.004, "inertia": [4e-8] * 3,
                      "position": np.array([0.0, 0.0, radius + drop])}],
            "surface": [{"name": "ball", "body": "ball", "sphere_radius": radius},
                        {"name": "floor", "body": "ground", "plane_normal": (0, 0, 1)}],
            "contact": [{"name": "ball_floor", "surface_i": "ball", "surface_j": "floor", "stiffness": 1e8}],
        })
        data = surfdb.Data(model)
        surfdb.advance(model, data, 0.02)
        first = data.summary()["contacts"][0]["first_contact_time"]
        self.assertAlmostEqual(first, (2 * drop / g) ** 0.5, delta=2e-5)  # 14.28 ms, within a step

    def test_a_bad_scenario_dict_names_the_field(self):
        ball = {"name": "ball", "mass": -1.0, "inertia": [4e-8] * 3, "position": [0, 0, 0]}
        with self.assertRaisesRegex(surfdb.ScenarioError, r"^scenario dict: body 'ball'\.mass: must be positive"):
            surfdb.Model({"simulation": {"end_time": 0.1}, "body": [ball]})
        with self.assertRaisesRegex(ValueError, "is not a number, bool, string, list or dict"):
            surfdb.Model({"simulation": {"end_time": 0.1}, "body": [{**ball, "mass": {1, 2}}]})
        with self.assertRaisesRegex(ValueError, "folder= is for a scenario dict"):
            surfdb.Model(BALL, folder=".")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
